# estimate kind: a custom collate_fn that pads every sequence to a fixed length
import torch
from torch.utils.data import DataLoader, Dataset


class Sequences(Dataset):
    def __len__(self):
        return 100

    def __getitem__(self, i):
        return torch.arange(i % 50 + 1)  # variable length: the collate_fn fixes it


def pad_to_128(batch):
    ids = torch.zeros(len(batch), 128, dtype=torch.long)
    mask = torch.zeros((len(batch), 128), dtype=torch.bool)
    for row, seq in enumerate(batch):
        seq = seq[:128]
        ids[row, : len(seq)] = seq
        mask[row, : len(seq)] = True
    return ids, mask


def make():
    return DataLoader(Sequences(), batch_size=16, num_workers=2, collate_fn=pad_to_128)
