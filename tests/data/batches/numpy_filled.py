# estimate kind: an array made empty and filled by element writes (a gridded field: wind
# components over time on a latitude × longitude grid), its sizes module constants, transposed and
# copied into a float tensor; the label beside it has no size the code fixes (a lower bound)
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class WindFields(Dataset):
    def __init__(self, wind_u, wind_v, heights, time=6):
        self.wind_u, self.wind_v, self.heights = wind_u, wind_v, heights
        self.sequence_length = time

    def __len__(self):
        return len(self.wind_u) - self.sequence_length

    def __getitem__(self, idx):
        edge = 2
        data = np.empty((2, self.sequence_length, LAT, LON + edge * 2), dtype=np.float32)
        data[0, :, :, edge:-edge] = self.wind_u[idx : idx + self.sequence_length]
        data[1, :, :, edge:-edge] = self.wind_v[idx : idx + self.sequence_length]
        data[:, :, :, :edge] = 0
        data[:, :, :, -edge:] = 0
        data = np.transpose(data, (1, 2, 3, 0))
        label = np.nan_to_num(self.heights[idx + self.sequence_length], nan=0)
        data = torch.Tensor(data).float()
        label = torch.Tensor(label).float()
        return data, label


def make():
    wind = np.random.rand(40, LAT, LON)
    heights = np.random.rand(40, 3, 3)
    return DataLoader(WindFields(wind, wind, heights), batch_size=4, num_workers=2)


LAT = 12
LON = 20
